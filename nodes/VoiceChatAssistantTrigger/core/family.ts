import type {
	IDataObject,
	IHookFunctions,
	ITriggerFunctions,
	ITriggerResponse,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

/**
 * A family of the webhook trigger's events (calls/, midCallTool/, whatsapp/): what it does at each
 * of n8n's calls of the node. The node keeps a list of them (families.ts) and hands each call to the
 * family of the chosen event, so an event is one family's entry, not a branch in the node.
 */
export interface EventFamily {
	/** The values of the Event picker this family serves. */
	readonly events: readonly string[];
	/** Whether the static data holds a registration of this family (removed also after the event was changed). */
	registered(staticData: IDataObject): boolean;
	/** n8n's checkExists: whether the service still sends to this trigger. */
	checkExists(ctx: IHookFunctions): Promise<boolean>;
	/** n8n's create: registers this trigger at the service (or checks what the dashboard holds). */
	create(ctx: IHookFunctions): Promise<boolean>;
	/** n8n's delete: takes back what this family registered. */
	remove(ctx: IHookFunctions): Promise<boolean>;
	/** A post of the service. */
	webhook(ctx: IWebhookFunctions): Promise<IWebhookResponseData>;
	/** trigger(): what the family does with no post (its heartbeat), if anything. */
	heartbeat?(ctx: ITriggerFunctions): Promise<ITriggerResponse>;
}
