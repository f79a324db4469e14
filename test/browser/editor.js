/**
 * The n8n editor in a real headless Chromium (Debian's `chromium`, driven by
 * playwright-core): log in, open the node panel, search, open an app, add an
 * action, read what the page shows. Every step waits for what the page shows,
 * never for a fixed time. Screenshots go to `dir` (test artifacts).
 */
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const CHROMIUM =
	process.env.CHROMIUM_PATH ||
	['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));

const sel = {
	panel: '[data-test-id="node-creator"]',
	search: '[data-test-id="node-creator"] input',
	nodeItem: '[data-test-id="node-creator-node-item"]',
	item: '[data-test-id="item-iterator-item"]',
	itemName: '[data-test-id="node-creator-item-name"]',
	ndv: '[data-test-id="ndv"]',
	/** The canvas's "Stop waiting for the test event" (both lines). */
	stopListening: '[data-test-id="stop-execution-waiting-for-webhook-button"]:visible',
};

/** A browser logged in to the n8n at `baseUrl` as `owner`; it records the HTTP errors the editor receives. */
async function openEditor({ baseUrl, owner, dir, viewport = { width: 1400, height: 900 } }) {
	if (!CHROMIUM)
		throw new Error(
			"No Chromium: install Debian's `chromium` package (scripts/test.sh does), or set CHROMIUM_PATH",
		);
	fs.mkdirSync(dir, { recursive: true });
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: ['--no-sandbox', '--disable-dev-shm-usage'],
	});
	const context = await browser.newContext({ viewport });
	const page = await context.newPage();
	// the browser layers run beside both e2e lines on a 2-core machine: the editor may take this long
	// to show a page (15 s was exceeded there); what a step waits for is still asserted
	page.setDefaultTimeout(45_000);
	/** HTTP answers of 500 and above the editor received (the "Error fetching options" kind). */
	const serverErrors = [];
	page.on('response', (r) => {
		if (r.status() >= 500)
			serverErrors.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
	});
	/** The editor's option requests: method, whether a credential was sent, status, options answered. */
	const optionRequests = [];
	page.on('requestfinished', async (request) => {
		const kind = [
			'/dynamic-node-parameters/options',
			'/dynamic-node-parameters/resource-locator-results',
		].find((k) => request.url().includes(k));
		if (!kind) return;
		const body = JSON.parse(request.postData() || '{}');
		const response = await request.response();
		let count;
		try {
			count = (await response.json()).data?.length;
		} catch {
			// not JSON: the request is recorded without a count
		}
		optionRequests.push({
			kind: kind.split('/').pop(),
			method: body.methodName,
			credential: Boolean(body.credentials && Object.keys(body.credentials).length),
			status: response?.status(),
			count,
		});
	});
	let shots = 0;
	const editor = {
		page,
		serverErrors,
		optionRequests,
		async close() {
			await browser.close();
		},
		/** A screenshot of the page as `<nn>-<name>.png` in `dir`; with `file`, also as that file (JPEG when it ends in .jpg). */
		async shot(name, { file } = {}) {
			const target = path.join(dir, `${String(++shots).padStart(2, '0')}-${name}.png`);
			await page.screenshot({ path: target });
			if (file)
				await page.screenshot({
					path: file,
					...(file.endsWith('.jpg') ? { type: 'jpeg', quality: 70 } : {}),
				});
			return target;
		},
		async login() {
			await page.goto(`${baseUrl}/signin`);
			await page.locator('[data-test-id="emailOrLdapLoginId"] input').fill(owner.email);
			await page.locator('[data-test-id="password"] input').fill(owner.password);
			await page.locator('[data-test-id="form-submit-button"]').click();
			await page.waitForURL((url) => !url.pathname.includes('/signin'));
			// the first workflow page loads the editor's node types: on a 2-core machine beside both e2e
			// lines that took over 45 s (the first test's canvas did not show in time); once, here
			await page.goto(`${baseUrl}/workflow/new`);
			await page.locator('[data-test-id="canvas-add-button"]').waitFor({ timeout: 180_000 });
		},
		/** A new, empty workflow with the node panel open at its first step ("What triggers this workflow?"). */
		async newWorkflow() {
			await page.goto(`${baseUrl}/workflow/new`);
			// after a workflow page, 1.x's editor beside both e2e lines took over 45 s to show a new canvas
			await page.locator('[data-test-id="canvas-add-button"]').click({ timeout: 120_000 });
			await page.locator(sel.panel).waitFor();
		},
		/** Opens the node panel from the canvas's plus button (the next step, once a node is there). */
		async openPanel() {
			await page.locator('[data-test-id="node-creator-plus-button"]').click();
			await page.locator(sel.panel).waitFor();
		},
		/** The panel's title line (e.g. "What happens next?"). */
		async panelText() {
			return await page.locator(sel.panel).innerText();
		},
		/** Clicks an entry of the panel's list by its visible name (a category such as "Action in an app", an app, an action). */
		async choose(name) {
			await page.locator(sel.panel).getByText(name, { exact: true }).first().click();
		},
		/**
		 * Types `text` into the panel's search and returns the names of the apps
		 * found, once the list shows them (or "No results").
		 */
		async search(text) {
			const input = page.locator(sel.search);
			await input.fill(text);
			return await this.listed();
		},
		/**
		 * The names of the entries the panel lists (apps, or the actions and
		 * triggers of an open app), once the list has settled: the same names
		 * on three reads in a row (the list is redrawn after each keystroke).
		 */
		async listed() {
			const read = async () =>
				(await page.locator(sel.panel).locator(`${sel.item} ${sel.itemName}`).allInnerTexts()).join(
					'\n',
				);
			let last;
			let same = 0;
			for (const end = Date.now() + 15_000; Date.now() < end && same < 3; ) {
				await page.waitForTimeout(100);
				const now = await read();
				same = now === last ? same + 1 : 0;
				last = now;
			}
			return last ? last.split('\n') : [];
		},
		/**
		 * The details of the app open in the panel: its description, its
		 * "Triggers (n)" and "Actions (n)" lists (names), and the whole text.
		 */
		async appDetails() {
			const panel = page.locator(sel.panel);
			await panel
				.getByText(/^(Actions|Triggers) \(\d+\)$/)
				.first()
				.waitFor();
			const names = await this.listed();
			const text = await panel.innerText();
			const count = (label) =>
				Number((new RegExp(`^${label} \\((\\d+)\\)$`, 'm').exec(text) || [0, NaN])[1]);
			return { text, names, triggers: count('Triggers'), actions: count('Actions') };
		},
		/** Adds a Manual Trigger to the empty workflow (the panel is open at the first step). */
		async addManualTrigger() {
			await this.search('Manual Trigger');
			await page.locator(sel.panel).locator(sel.nodeItem).first().click();
			await page.locator('[data-test-id="canvas-node"]').first().waitFor();
		},
		/** Adds the action named `action` of the app `app` (the panel is open) and waits for its form. */
		async addAction(app, action) {
			await this.search(app);
			await this.choose(app);
			await page
				.locator(sel.panel)
				.locator(sel.item)
				.filter({ has: page.getByText(action, { exact: true }) })
				.first()
				.click();
			await page.locator(sel.ndv).waitFor();
			await page.locator(`${sel.ndv} [data-test-id="node-parameters"]`).waitFor();
		},
		/** The form's text (labels, notices, values). */
		async formText() {
			return await page.locator(`${sel.ndv} [data-test-id="node-parameters"]`).innerText();
		},
		/** The value the text or options parameter `name` shows in the form. */
		async parameterValue(name) {
			const field = page
				.locator(`${sel.ndv} [data-test-id="parameter-input-${name}"]`)
				.locator('input, textarea')
				.first();
			return await field.inputValue();
		},
		/** Types `value` into the text parameter `name` (the first of that name in the form). */
		async fill(name, value) {
			const field = page
				.locator(`${sel.ndv} [data-test-id="parameter-input-${name}"]`)
				.locator('input, textarea')
				.first();
			await field.fill(value);
			await field.blur();
		},
		/** Clicks the form's button labelled `label` (such as "Add Parameter") and waits for the form to show `then`. */
		async clickInForm(label, then) {
			await page.locator(sel.ndv).getByRole('button', { name: label }).first().click();
			if (then)
				await page
					.locator(`${sel.ndv} [data-test-id="node-parameters"]`)
					.getByText(then, { exact: true })
					.first()
					.waitFor();
		},
		/** Picks the entry `item` in the searchable list of the resource locator `name`. */
		async pick(name, item) {
			await page
				.locator(`${sel.ndv} [data-test-id="resource-locator-${name}"] [data-test-id="rlc-input"]`)
				.click();
			await page
				.locator('[data-test-id="rlc-item"]:visible')
				.filter({ hasText: item })
				.first()
				.click();
		},
		/** Scrolls the form back to its first field. */
		async scrollFormToTop() {
			await page.locator(`${sel.ndv} [data-test-id="node-parameters"]`).evaluate((el) => {
				for (let node = el; node; node = node.parentElement)
					if (node.scrollHeight > node.clientHeight) node.scrollTop = 0;
			});
		},
		/** Closes the node's form. */
		async closeForm() {
			// 2.x: the close button; 1.x: "Back to canvas"
			await page
				.locator(
					'[data-test-id="ndv-close-button"]:visible, [data-test-id="back-to-canvas"]:visible',
				)
				.first()
				.click();
			await page.locator(sel.ndv).waitFor({ state: 'hidden' });
		},
		/** Opens the dropdown of the options parameter `name` and returns its entries once it shows some. */
		async dropdownOptions(name) {
			const options = page.locator('.el-select-dropdown__item:visible, [role="option"]:visible');
			// the list opens once the picker has its options (it is drawn again when they arrive)
			for (let attempt = 0; ; attempt++) {
				await page
					.locator(`${sel.ndv} [data-test-id="parameter-input-${name}"] input`)
					.first()
					.click();
				try {
					await options.first().waitFor({ timeout: 3_000 });
					return await options.allInnerTexts();
				} catch (error) {
					if (attempt === 4) {
						await this.shot(`no-options-${name}`);
						console.log(JSON.stringify(optionRequests));
						throw error;
					}
					await page.keyboard.press('Escape');
				}
			}
		},
		/** Opens the searchable list of the resource locator `name` and returns its entries once it shows them. */
		async pickerItems(name) {
			await page
				.locator(`${sel.ndv} [data-test-id="resource-locator-${name}"] [data-test-id="rlc-input"]`)
				.click();
			const items = page.locator('[data-test-id="rlc-item"]:visible');
			// on a busy machine the list can come late, or its first request before the credential is set:
			// closed and opened again, the picker asks once more
			for (let attempt = 0; ; attempt++) {
				try {
					await items.first().waitFor({ timeout: 10_000 });
					break;
				} catch (error) {
					if (attempt === 2) {
						await this.shot(`no-items-${name}`);
						console.log(JSON.stringify(optionRequests));
						throw error;
					}
					await page.keyboard.press('Escape');
					await page
						.locator(
							`${sel.ndv} [data-test-id="resource-locator-${name}"] [data-test-id="rlc-input"]`,
						)
						.click();
				}
			}
			const names = await items.allInnerTexts();
			await page.keyboard.press('Escape');
			return names.map((n) => n.trim());
		},
		/**
		 * Clicks the open trigger's "Listen for test event" (the form's execute button, on both
		 * lines) and waits until the form shows that it listens.
		 */
		async listenForTestEvent() {
			await page.locator(`${sel.ndv} [data-test-id="node-execute-button"]:visible`).first().click();
			await page.locator(`${sel.ndv} [data-test-id="trigger-listening"]`).first().waitFor();
		},
		/**
		 * The open node's output in the table view (the default of both lines), once it shows a row:
		 * the column names and each row as `{column: cell text}`.
		 */
		async outputTable() {
			const table = page.locator(`${sel.ndv} [data-test-id="output-panel"] table`).first();
			await table.locator('tbody tr td').first().waitFor();
			return await table.evaluate((t) => {
				const text = (cell) => cell.innerText.trim();
				const columns = [...t.querySelectorAll('thead th')].map(text);
				const rows = [...t.querySelectorAll('tbody tr')].map((tr) =>
					Object.fromEntries([...tr.querySelectorAll('td')].map((td, n) => [columns[n], text(td)])),
				);
				return { columns, rows };
			});
		},
		/** Whether the canvas shows that the workflow waits for a test event (its stop button). */
		async listening() {
			return (await page.locator(sel.stopListening).count()) > 0;
		},
		/**
		 * Closes a node's form a failed test left open, and stops a test listener it left, so that
		 * one failure does not fail the next test (and the service gets its production URL back).
		 */
		async tidy() {
			if (await page.locator(sel.ndv).isVisible())
				await this.closeForm().catch(() => page.keyboard.press('Escape'));
			if (await this.listening())
				await page
					.locator(sel.stopListening)
					.first()
					.click()
					.catch(() => {});
		},
		/** Closes the node panel (Escape until it is gone). */
		async closePanel() {
			const panel = page.locator(sel.panel);
			for (let i = 0; i < 5 && (await panel.isVisible()); i++) {
				await page.keyboard.press('Escape');
				await panel.waitFor({ state: 'hidden', timeout: 1_000 }).catch(() => {});
			}
		},
	};
	return editor;
}

module.exports = { openEditor, CHROMIUM };
