/** The lead statuses of the service (the lead list's filter, Lead Status Changed). */
export const LEAD_STATUSES = [
	'created',
	'scheduled',
	'processing',
	'completed',
	'rescheduled',
	'reached-max-retries',
	'blacklisted',
] as const;
