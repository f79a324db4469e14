/** Folder → Update: the suite it shares with its twin (label/update.test.ts) in ../folderAndLabel.ts. */
import { updateTests } from '../folderAndLabel';

updateTests('folder');
