/** Label → Update: the suite it shares with its twin (folder/update.test.ts) in ../folderAndLabel.ts. */
import { updateTests } from '../folderAndLabel';

updateTests('label');
