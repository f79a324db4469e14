/** Folder → Create: the suite it shares with its twin (label/create.test.ts) in ../folderAndLabel.ts. */
import { createTests } from '../folderAndLabel';

createTests('folder');
