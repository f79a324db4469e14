/**
 * Pickers of the telephony operations (merged into the node's methods).
 */
export const listSearch = {};

export const loadOptions = {};
