/** Folder → Delete: the suite it shares with its twin (label/delete.test.ts) in ../folderAndLabel.ts. */
import { deleteTests } from '../folderAndLabel';

deleteTests('folder');
