// Drives a test host page that embeds an MCP App (cmd/everything's
// calculator) in headless Chromium, the machine's own (no download):
// waits for the view to show the first result, adds two numbers through
// the form, asks the view to fetch a URL its policy does not allow, takes
// a screenshot, and prints what the page showed as one JSON line.
//
//	node drive.mjs HOST_URL PROBE_URL SCREENSHOT.png
//
// The Go test (cmd/everything, TestAppInBrowser) starts everything and
// judges the line; this script only clicks and reads. CHROMIUM names the
// browser (default /usr/bin/chromium). Every wait is bounded.
import { chromium } from "playwright-core";

const [hostURL, probeURL, shot] = process.argv.slice(2);
if (!hostURL || !probeURL || !shot) {
  console.error("usage: node drive.mjs HOST_URL PROBE_URL SCREENSHOT.png");
  process.exit(2);
}
const timeout = 20000;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  timeout,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const out = { console: [] };
try {
  const page = await browser.newPage({ viewport: { width: 640, height: 520 } });
  page.setDefaultTimeout(timeout);
  page.on("console", (m) => out.console.push(m.type() + ": " + m.text()));
  page.on("pageerror", (e) => out.console.push("pageerror: " + e.message));
  await page.goto(hostURL);
  const view = page.frameLocator("#sandbox").frameLocator("#view");
  await view.locator("#status", { hasText: "ready" }).waitFor();
  out.first = await view.locator("#sum").textContent();
  await view.locator("#a").fill("5");
  await view.locator("#b").fill("7");
  await view.locator("#add").click();
  await view.locator("#status", { hasText: /^(added|error)/ }).waitFor();
  out.status = await view.locator("#status").textContent();
  out.sum = await view.locator("#sum").textContent();
  await view.locator("#url").fill(probeURL);
  await view.locator("#fetch").click();
  await view.locator("#network", { hasText: /\S/ }).waitFor();
  out.network = await view.locator("#network").textContent();
  if (out.network.startsWith("failed")) {
    // A fetch the policy blocks also fires securitypolicyviolation, in
    // either order with the failure: wait for it, bounded.
    await view.locator("#violation", { hasText: /\S/ }).waitFor({ timeout: 5000 }).catch(() => {});
  }
  out.violation = await view.locator("#violation").textContent();
  await page.screenshot({ path: shot });
} catch (err) {
  out.error = String(err && err.message || err);
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
