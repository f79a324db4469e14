/**
 * Pickers of the messaging operations (merged into the node's methods).
 */
export const listSearch = {};

export const loadOptions = {};
export const resourceMapping = {};
