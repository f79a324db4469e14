'use strict';
/**
 * Method + path routing with `:name` parameters. A path that exists for another method
 * is reported so the server can answer 405 like the service's framework does.
 */

class Router {
	constructor() {
		this.routes = [];
	}

	add(method, pattern, handler) {
		const names = [];
		const source = pattern
			.split('/')
			.map((seg) => {
				if (seg.startsWith(':')) {
					names.push(seg.slice(1));
					return '([^/]+)';
				}
				return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
			})
			.join('/');
		this.routes.push({ method, pattern, regex: new RegExp(`^${source}$`), names, handler });
		return this;
	}

	get(pattern, handler) {
		return this.add('GET', pattern, handler);
	}

	post(pattern, handler) {
		return this.add('POST', pattern, handler);
	}

	put(pattern, handler) {
		return this.add('PUT', pattern, handler);
	}

	patch(pattern, handler) {
		return this.add('PATCH', pattern, handler);
	}

	delete(pattern, handler) {
		return this.add('DELETE', pattern, handler);
	}

	/**
	 * @returns {{route, params}|{allowed: string[]}|null}
	 */
	match(method, path) {
		const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
		const allowed = [];
		for (const route of this.routes) {
			const m = route.regex.exec(normalized);
			if (!m) continue;
			if (route.method === method || (method === 'HEAD' && route.method === 'GET')) {
				const params = {};
				route.names.forEach((name, i) => {
					try {
						params[name] = decodeURIComponent(m[i + 1]);
					} catch {
						params[name] = m[i + 1];
					}
				});
				return { route, params };
			}
			allowed.push(route.method);
		}
		return allowed.length ? { allowed: [...new Set(allowed)] } : null;
	}
}

module.exports = { Router };
