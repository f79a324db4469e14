const fs = require('fs');
const path = require('path');
const { Transform } = require('stream');
const { task, src, dest, parallel } = require('gulp');

/**
 * The project's home lives in one place: package.json (`homepage`, else
 * `repository.url`). The sources (the codex files in nodes/, the credential's
 * documentationUrl) link to a placeholder home, SOURCE_HOME; the copies in dist/
 * link to the real one, with the same anchors (`#credentials`, `#triggers`, ...).
 */
const SOURCE_HOME = 'https://github.com/voice-chat-assistant/n8n-nodes-voice-chat-assistant';

/** The project's home page without its anchor, from package.json. */
function projectHome() {
	const pkg = JSON.parse(fs.readFileSync(path.resolve('package.json'), 'utf8'));
	const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository && pkg.repository.url;
	const fromRepo = repo && repo.replace(/^git\+/, '').replace(/^git:\/\//, 'https://').replace(/\.git$/, '');
	const home = (pkg.homepage || fromRepo || '').split('#')[0].replace(/\/+$/, '');
	if (!/^https:\/\//.test(home)) throw new Error(`package.json: "homepage" (or "repository.url") must be an https URL, got ${JSON.stringify(home)}`);
	return home;
}

/** `text` with every link to SOURCE_HOME (with or without an anchor) pointing at `home`. */
function relink(text, home) {
	return text.split(SOURCE_HOME).join(home);
}

// Icons are referenced as `file:../../icons/...` (nodes) and `file:../icons/...`
// (credential) from the built files, so they go to dist/icons.
function copyIcons() {
	return src(path.resolve('icons', '*.{png,svg}'), { encoding: false }).pipe(dest(path.resolve('dist', 'icons')));
}

// The codex files (categories, aliases, docs links) sit beside each node; their
// documentation links are pointed at the project's home on the way.
function copyCodex() {
	const home = projectHome();
	const rewrite = new Transform({
		objectMode: true,
		transform(file, _encoding, done) {
			if (file.isBuffer()) {
				const text = relink(file.contents.toString('utf8'), home);
				JSON.parse(text); // still a codex file
				file.contents = Buffer.from(text);
			}
			done(null, file);
		},
	});
	return src('nodes/**/*.node.json', { base: '.' }).pipe(rewrite).pipe(dest('dist'));
}

// The credential's documentationUrl, in the JavaScript tsc wrote.
async function relinkCredentials() {
	const home = projectHome();
	const dir = path.resolve('dist', 'credentials');
	if (!fs.existsSync(dir)) throw new Error('dist/credentials is missing: run tsc first (npm run build)');
	for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.credentials.js'))) {
		const file = path.join(dir, name);
		const text = fs.readFileSync(file, 'utf8');
		const next = relink(text, home);
		if (next !== text) fs.writeFileSync(file, next);
		const url = /documentationUrl\s*=\s*['"]([^'"]*)['"]/.exec(next);
		if (url && !url[1].startsWith(home)) throw new Error(`${name}: documentationUrl ${url[1]} is not under ${home}`);
	}
}

const buildDist = parallel(copyIcons, copyCodex, relinkCredentials);
task('build:dist', buildDist);
task('build:icons', buildDist); // the former name of the same task
module.exports = { projectHome, relink, SOURCE_HOME };
