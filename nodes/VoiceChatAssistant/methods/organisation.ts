/**
 * Pickers of the organisation operations (merged into the node's methods).
 */
export const listSearch = {};

export const loadOptions = {};
