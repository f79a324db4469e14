import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, unwrap } from '../transport';
import { refuse } from './validation';

/**
 * An Update whose body is built from its Update Fields alone (documents,
 * knowledge bases, tools): refused when nothing is to change, else sent as a
 * PUT to `path`; the answer's record.
 */
export async function putUpdateFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	path: string,
	buildBody: (fields: IDataObject) => IDataObject,
	whenEmpty: string,
): Promise<IDataObject> {
	const body = buildBody(ctx.getNodeParameter('updateFields', itemIndex, {}) as IDataObject);
	if (!Object.keys(body).length) refuse(ctx, itemIndex, whenEmpty);
	return unwrap(await apiRequest.call(ctx, 'PUT', path, { body, itemIndex }));
}
