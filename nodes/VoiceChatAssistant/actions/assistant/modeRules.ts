import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { refuse } from '../validation';

const REALTIME = ['multimodal', 'dualplex'];

/**
 * The rules of the API contract that tie fields to the engine mode (docs/api.md,
 * Assistant), checked for the
 * mode the body is for (undefined: an update that keeps the current mode).
 * Only what the service refuses is refused: a field that merely "applies to"
 * another mode (an LLM model in multimodal, say) is sent, and so is turning
 * fillers off, or switching the post-call webhook on for an assistant that
 * may already have a URL.
 */
export function checkModeRules(
	ctx: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	mode: string | undefined,
	creating: boolean,
) {
	const change = creating ? 'for' : 'when changing to';
	if (mode === 'pipeline') {
		if (body.llm_model_id === undefined || body.llm_model_id === null) {
			refuse(ctx, itemIndex, `LLM Model is required ${change} the pipeline mode`);
		}
	} else if (mode && REALTIME.includes(mode)) {
		if (body.multimodal_model_id === undefined || body.multimodal_model_id === null) {
			refuse(ctx, itemIndex, `Multimodal Model is required ${change} the ${mode} mode`);
		}
		if (body.fillers === true) {
			refuse(ctx, itemIndex, `Fillers can only be turned on in the pipeline mode, not ${mode}`);
		}
		if (body.knowledgebase_mode !== undefined && body.knowledgebase_mode !== 'function_call') {
			refuse(
				ctx,
				itemIndex,
				`Knowledgebase Mode must be function_call in the ${mode} mode, got "${body.knowledgebase_mode}"`,
			);
		}
		if (body.allow_interruptions === false) {
			refuse(ctx, itemIndex, `Allow Interruptions cannot be turned off in the ${mode} mode`);
		}
	}
	// on update the assistant may already have a URL: only a new assistant needs one with the switch
	if (creating && body.is_webhook_active === true && !body.webhook_url) {
		refuse(ctx, itemIndex, 'Webhook URL is required when Post-Call Webhook Active is on');
	}
}
