/** Label → Delete: the suite it shares with its twin (folder/delete.test.ts) in ../folderAndLabel.ts. */
import { deleteTests } from '../folderAndLabel';

deleteTests('label');
