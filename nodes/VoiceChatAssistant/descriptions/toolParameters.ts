/** The types of a mid-call tool's parameters: the Mid Call Tool resource's and the trigger's Mid-Call Tool Request event's. */
export const TOOL_PARAMETER_TYPES = ['boolean', 'number', 'string'] as const;
export type ToolParameterType = (typeof TOOL_PARAMETER_TYPES)[number];
