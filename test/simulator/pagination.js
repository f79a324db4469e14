'use strict';
/**
 * Laravel's LengthAwarePaginator envelope (SPEC: "Pagination envelope"):
 * current_page, data, first_page_url, from, last_page, last_page_url, links,
 * next_page_url, path, per_page, prev_page_url, to, total.
 * Page URLs are absolute, built from the request's Host, and keep every query
 * parameter of the request (filters, per_page) with `page` set last.
 */

const ON_EACH_SIDE = 3;

/** Validates `per_page` (1-100, default 15) and reads `page` (invalid → 1, as Laravel does). */
function pageParams(validator, query, defaultPerPage = 15) {
	const perPage = validator.check(
		'per_page',
		{ type: 'integer', min: 1, max: 100 },
		query.per_page,
		query.per_page !== undefined,
	);
	const rawPage = query.page;
	let page = 1;
	if (rawPage !== undefined && /^\d+$/.test(String(rawPage)) && Number(rawPage) >= 1)
		page = Number(rawPage);
	return { perPage: perPage.ok && perPage.value != null ? perPage.value : defaultPerPage, page };
}

function windowPages(current, last) {
	const range = (a, b) => Array.from({ length: Math.max(0, b - a + 1) }, (_, i) => a + i);
	if (last < ON_EACH_SIDE * 2 + 8) return [range(1, last)];
	const window = ON_EACH_SIDE + 4;
	if (current <= window) return [range(1, window + ON_EACH_SIDE), [last - 1, last]];
	if (current > last - window) return [[1, 2], range(last - (window + (ON_EACH_SIDE - 1)), last)];
	return [[1, 2], range(current - ON_EACH_SIDE, current + ON_EACH_SIDE), [last - 1, last]];
}

/**
 * @param {object} ctx request context (baseUrl, path, url)
 * @param {Array} items all matching items, already filtered and sorted
 * @param {{page:number, perPage:number}} p
 * @param {(item) => object} present maps an item to its API shape
 */
function paginate(ctx, items, { page, perPage }, present = (x) => x) {
	const total = items.length;
	const lastPage = Math.max(1, Math.ceil(total / perPage));
	const start = (page - 1) * perPage;
	const slice = items.slice(start, start + perPage);
	const path = `${ctx.baseUrl}${ctx.path.replace(/\/+$/, '') || '/'}`;

	const url = (n) => {
		const params = new URLSearchParams(ctx.url.search);
		params.delete('page');
		params.append('page', String(n));
		return `${path}?${params.toString()}`;
	};

	const links = [
		{ url: page > 1 ? url(page - 1) : null, label: '&laquo; Previous', active: false },
	];
	windowPages(page, lastPage).forEach((group, i) => {
		if (i > 0) links.push({ url: null, label: '...', active: false });
		for (const n of group) links.push({ url: url(n), label: String(n), active: n === page });
	});
	links.push({ url: page < lastPage ? url(page + 1) : null, label: 'Next &raquo;', active: false });

	return {
		current_page: page,
		data: slice.map(present),
		first_page_url: url(1),
		from: slice.length ? start + 1 : null,
		last_page: lastPage,
		last_page_url: url(lastPage),
		links,
		next_page_url: page < lastPage ? url(page + 1) : null,
		path,
		per_page: perPage,
		prev_page_url: page > 1 ? url(page - 1) : null,
		to: slice.length ? start + slice.length : null,
		total,
	};
}

module.exports = { paginate, pageParams };
