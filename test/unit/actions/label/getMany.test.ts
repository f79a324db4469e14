/** Label → Get Many: the suite it shares with its twin (folder/getMany.test.ts) in ../folderAndLabel.ts. */
import { getManyTests } from '../folderAndLabel';

getManyTests('label');
