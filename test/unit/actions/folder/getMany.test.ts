/** Folder → Get Many: the suite it shares with its twin (label/getMany.test.ts) in ../folderAndLabel.ts. */
import { getManyTests } from '../folderAndLabel';

getManyTests('folder');
