const path = require('path');
const { task, src, dest, parallel } = require('gulp');

// Icons are referenced as `file:../../icons/...` (nodes) and `file:../icons/...`
// (credential) from the built files, so they go to dist/icons.
function copyIcons() {
	return src(path.resolve('icons', '*.{png,svg}'), { encoding: false }).pipe(dest(path.resolve('dist', 'icons')));
}

// The codex files (categories, aliases, docs links) sit beside each node.
function copyCodex() {
	return src('nodes/**/*.node.json', { base: '.' }).pipe(dest('dist'));
}

task('build:icons', parallel(copyIcons, copyCodex));
