/** Label → Create: the suite it shares with its twin (folder/create.test.ts) in ../folderAndLabel.ts. */
import { createTests } from '../folderAndLabel';

createTests('label');
