'use strict';
/**
 * A running campaign calls its leads: each step ("tick") of a campaign that is
 * `in-progress` (or `active`)
 *
 *   1. ends the calls of its `processing` leads: each lead takes its outcome,
 *      `variables.simulated_outcome` when that is `completed`,
 *      `reached-max-retries` or `blacklisted`, else `completed`;
 *   2. starts calls: up to `max_calls_in_parallel` leads (or `leads` of the
 *      request) still to call (`created`, `scheduled`, `rescheduled`), lowest
 *      id first, become `processing`;
 *   3. when no lead is left to call or in a call, the campaign completes
 *      (status `completed`) unless `mark_complete_when_no_leads` is false.
 *
 * A lead moves at most one status per tick; each move sets its `updated_at`.
 * Ticks come only from the control API (tests stay deterministic):
 *
 *   POST /__sim/campaigns/:id/advance  {ticks?: 1, leads?: N}
 *        → {campaign: {id, status}, moved: [{id, from, to}], remaining}
 *        409 {message} when the campaign is not running; 404 when unknown
 *   POST /__sim/campaigns/:id/leads    {count, outcomes?}: adds `count` leads (status `created`,
 *        numbers +1 555 0000000 upward) in one go, for campaigns of 100,000 leads; `outcomes`
 *        {every: N, outcome}: every Nth lead ends with `outcome` (simulated_outcome)
 *        → {created, first_id, last_id, total}
 *   POST /__sim/campaigns/:id/run      {stepMs}: one tick every stepMs while the campaign
 *        runs (stopped campaigns wait; a completed or deleted one ends the run); stepMs 0 ends it
 *        → {campaign_id, stepMs}
 */
const { nextId } = require('./state');
const { HttpError, intId, iso, sqlTime } = require('./util');

const RUNNING = ['in-progress', 'active'];
const TO_CALL = ['created', 'scheduled', 'rescheduled'];
const OUTCOMES = ['completed', 'reached-max-retries', 'blacklisted'];

function findCampaign(state, params) {
	const id = intId(params.id);
	const campaign = id === null ? null : state.campaigns.find((c) => c.id === id);
	if (!campaign) throw new HttpError(404, { message: 'Campaign not found.' });
	return campaign;
}

function positive(body, name, fallback) {
	const value = body && body[name] !== undefined ? Number(body[name]) : fallback;
	if (!Number.isInteger(value) || value < 0) {
		throw new HttpError(422, { message: `${name} must be an integer >= 0` });
	}
	return value;
}

/** One tick of `campaign`; returns the moves. */
function tick(state, campaign, parallel) {
	const moved = [];
	if (!RUNNING.includes(campaign.status)) return moved;
	const now = sqlTime();
	const leads = state.leads
		.filter((l) => l.campaign_id === campaign.id)
		.sort((a, b) => a.id - b.id);
	const move = (lead, to) => {
		moved.push({ id: lead.id, from: lead.status, to });
		lead.status = to;
		lead.updated_at = now;
	};
	for (const lead of leads.filter((l) => l.status === 'processing')) {
		const wanted = lead.variables && lead.variables.simulated_outcome;
		move(lead, OUTCOMES.includes(wanted) ? wanted : 'completed');
	}
	const limit = parallel ?? campaign.max_calls_in_parallel ?? 3;
	const movedIds = new Set(moved.map((m) => m.id));
	for (const lead of leads
		.filter((l) => TO_CALL.includes(l.status) && !movedIds.has(l.id))
		.slice(0, limit)) {
		move(lead, 'processing');
	}
	const remaining = leads.filter(
		(l) => l.status === 'processing' || TO_CALL.includes(l.status),
	).length;
	if (remaining === 0 && campaign.mark_complete_when_no_leads !== false) {
		campaign.status = 'completed';
		campaign.updated_at = iso();
	}
	return moved;
}

function remainingOf(state, campaign) {
	return state.leads.filter(
		(l) =>
			l.campaign_id === campaign.id && (l.status === 'processing' || TO_CALL.includes(l.status)),
	).length;
}

/** Ticks the campaign every `stepMs` while its run is registered in the state (a reset drops it). */
function schedule(sim, state, id, stepMs) {
	sim.schedule(stepMs, () => {
		const runs = state.campaignRuns || {};
		if (sim.state !== state || runs[id] !== stepMs) return; // reset, ended or re-paced
		const campaign = state.campaigns.find((c) => c.id === id);
		if (!campaign || campaign.status === 'completed') {
			delete runs[id];
			return;
		}
		tick(state, campaign);
		schedule(sim, state, id, stepMs);
	});
}

function register(router) {
	router.post('/__sim/campaigns/:id/advance', ({ sim, params, body }) => {
		const state = sim.state;
		const campaign = findCampaign(state, params);
		const ticks = positive(body, 'ticks', 1);
		const parallel = body && body.leads !== undefined ? positive(body, 'leads', 0) : undefined;
		if (!RUNNING.includes(campaign.status)) {
			throw new HttpError(409, {
				message: `Campaign ${campaign.id} is ${campaign.status}, not running: start it first.`,
			});
		}
		const moved = [];
		for (let i = 0; i < ticks && RUNNING.includes(campaign.status); i++)
			moved.push(...tick(state, campaign, parallel));
		return {
			status: 200,
			body: {
				campaign: { id: campaign.id, status: campaign.status },
				moved,
				remaining: remainingOf(state, campaign),
			},
		};
	});

	router.post('/__sim/campaigns/:id/leads', ({ sim, params, body }) => {
		const state = sim.state;
		const campaign = findCampaign(state, params);
		const count = positive(body, 'count', 0);
		if (count > 200_000) throw new HttpError(422, { message: 'count must be at most 200000' });
		const every = body && body.outcomes ? positive(body.outcomes, 'every', 0) : 0;
		const outcome = body && body.outcomes && body.outcomes.outcome;
		if (every && !OUTCOMES.includes(outcome))
			throw new HttpError(422, {
				message: `outcomes.outcome must be one of ${OUTCOMES.join(', ')}`,
			});
		const now = sqlTime();
		const first = state.leads.length;
		for (let i = 0; i < count; i++) {
			const id = nextId(state, 'leads');
			state.leads.push({
				id,
				campaign_id: campaign.id,
				phone_number: `+1555${String(id).padStart(7, '0')}`,
				variables: every && (i + 1) % every === 0 ? { simulated_outcome: outcome } : {},
				status: 'created',
				created_at: now,
				updated_at: now,
				secondary_contacts: [],
			});
		}
		const added = state.leads.slice(first);
		return {
			status: 200,
			body: {
				created: added.length,
				first_id: added.length ? added[0].id : null,
				last_id: added.length ? added[added.length - 1].id : null,
				total: state.leads.filter((l) => l.campaign_id === campaign.id).length,
			},
		};
	});

	router.post('/__sim/campaigns/:id/run', ({ sim, params, body }) => {
		const state = sim.state;
		const campaign = findCampaign(state, params);
		const stepMs = positive(body, 'stepMs', 0);
		state.campaignRuns = state.campaignRuns || {};
		if (stepMs > 0) {
			state.campaignRuns[campaign.id] = stepMs;
			schedule(sim, state, campaign.id, stepMs);
		} else delete state.campaignRuns[campaign.id];
		return { status: 200, body: { campaign_id: campaign.id, stepMs } };
	});
}

module.exports = { register, tick };
