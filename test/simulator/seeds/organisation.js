'use strict';
/**
 * Folders and labels that group assistants. A sample account has one folder and
 * two labels; seeded assistant 1 is filed in the folder and carries a label.
 */
function seed(state, { seeded }) {
	state.folders = [];
	state.labels = [];
	if (!seeded) return;
	state.folders.push({ id: 1, name: 'Support', color: 'blue' });
	state.labels.push({ id: 1, name: 'German', color: 'amber' }, { id: 2, name: 'VIP', color: null });
	const reception = state.assistants.find((a) => a.id === 1);
	if (reception) {
		reception.folder_id = 1;
		reception.label_ids = [1];
	}
}

module.exports = { seed };
