/**
 * The part of n8n's dependency-injection container that n8n-core reaches for
 * while it executes a workflow, set up once per test file (jest gives every
 * test file its own module registry, so its own `Container`).
 *
 * What a run needs, and what we put there:
 * - `Logger` (@n8n/backend-common): every node context asks for it. Left to
 *   itself the container builds a winston logger that prints node errors to the
 *   console; ours records the lines instead (tests search them for secrets).
 * - `InstanceSettings`: built by every node context. By default it reads or
 *   creates `~/.n8n/config` (an encryption key); ours lives in a temporary folder.
 * - `ErrorReporter`: WorkflowExecute reports engine-level surprises (e.g. task
 *   data missing) to it; ours records them, so a test can assert there were none.
 * - `BinaryDataService`: `prepareBinaryData`, `getBinaryDataBuffer` and
 *   `getBinaryMetadata` go through it. Ours runs in filesystem mode (n8n 2.x's
 *   default: binaries on disk, items keep only an id) in a temporary folder.
 *   Without `init()` it would keep binaries inline as base64 instead.
 * Everything else n8n-core needs for our nodes (`OutboundHttp` for HTTP,
 * `TriggersAndPollers` for the manual trigger, `ExecutionContextService`)
 * the container builds on its own from defaults.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { InstanceSettingsConfig as InstanceSettingsConfigType } from '@n8n/config';
import type { Container as ContainerType } from '@n8n/di';
import { BinaryDataService, ErrorReporter, InstanceSettings } from 'n8n-core';
import type { BinaryDataConfig } from 'n8n-core';

/*
 * n8n-core brings its own copies of @n8n/di, @n8n/config and
 * @n8n/backend-common (node_modules/n8n-core/node_modules/@n8n/...), newer than
 * the hoisted ones. Its services live in *its* container and are keyed by
 * *its* classes, so take those modules from where n8n-core resolves them.
 */
const fromCore = createRequire(require.resolve('n8n-core'));
const { Container } = fromCore('@n8n/di') as { Container: typeof ContainerType };
const { Logger: LoggerToken } = fromCore('@n8n/backend-common') as {
	Logger: new (...args: any[]) => Logger;
};
const { InstanceSettingsConfig } = fromCore('@n8n/config') as {
	InstanceSettingsConfig: new () => InstanceSettingsConfigType &
		ConstructorParameters<typeof InstanceSettings>[0];
};

/** n8n-core's Logger (from its own @n8n/backend-common). */
type Logger = ConstructorParameters<typeof InstanceSettings>[1];

export interface LogLine {
	level: 'error' | 'warn' | 'info' | 'debug';
	message: string;
	metadata?: unknown;
}

export interface CoreEnvironment {
	/** Temporary folder holding n8n's settings file and the binary data store. */
	folder: string;
	binaryDataService: BinaryDataService;
	/** What n8n-core and the nodes logged. */
	logs: LogLine[];
	/** What WorkflowExecute reported to the error reporter. */
	reportedErrors: unknown[];
}

function recordingLogger(logs: LogLine[]): Logger {
	const logger = {
		error: (message: string, metadata?: unknown) =>
			logs.push({ level: 'error', message, metadata }),
		warn: (message: string, metadata?: unknown) => logs.push({ level: 'warn', message, metadata }),
		info: (message: string, metadata?: unknown) => logs.push({ level: 'info', message, metadata }),
		debug: (message: string, metadata?: unknown) =>
			logs.push({ level: 'debug', message, metadata }),
		scoped: () => logger,
	};
	return logger as unknown as Logger;
}

let environment: Promise<CoreEnvironment> | undefined;
let createdFolder: string | undefined;

// registered when a test file imports this module (hooks cannot be added from inside a test)
if (typeof afterAll === 'function') {
	afterAll(() => {
		if (createdFolder) rmSync(createdFolder, { recursive: true, force: true });
	});
}

async function create(): Promise<CoreEnvironment> {
	const folder = mkdtempSync(path.join(tmpdir(), 'vca-workflow-'));
	const logs: LogLine[] = [];
	const reportedErrors: unknown[] = [];
	const logger = recordingLogger(logs);
	Container.set(LoggerToken, logger);

	const settingsConfig = Object.assign(new InstanceSettingsConfig(), {
		n8nFolder: path.join(folder, '.n8n'),
		userHome: folder,
		encryptionKey: 'workflow-tests-encryption-key',
		enforceSettingsFilePermissions: false,
	});
	Container.set(InstanceSettings, new InstanceSettings(settingsConfig, logger));

	Container.set(ErrorReporter, {
		error: (error: unknown) => reportedErrors.push(error),
		warn: () => {},
		info: () => {},
	} as unknown as ErrorReporter);

	const binaryDataConfig = {
		mode: 'filesystem',
		availableModes: ['filesystem'],
		localStoragePath: path.join(folder, 'binaryData'),
		signingSecret: 'workflow-tests-signing-secret',
		dbMaxFileSize: 512,
	} as unknown as BinaryDataConfig;
	const binaryDataService = new BinaryDataService(
		binaryDataConfig,
		Container.get(ErrorReporter),
		logger,
	);
	await binaryDataService.init();
	Container.set(BinaryDataService, binaryDataService);

	createdFolder = folder;
	return { folder, binaryDataService, logs, reportedErrors };
}

/** Sets the container up on first use; later calls return the same environment. */
export async function setupN8nCore(): Promise<CoreEnvironment> {
	environment ??= create();
	return await environment;
}
