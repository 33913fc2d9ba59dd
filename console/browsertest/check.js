// Loads the built-in page in Debian's chromium (headless, through
// playwright-core), waits until it shows the completed seconds of the
// resources named on the command line, reads the numbers it shows and the
// chart's place, and saves a screenshot. Prints one JSON object to stdout.
//
//   node check.js URL SCREENSHOT.png RESOURCE...
//
// CHROMIUM names the browser binary (default /usr/bin/chromium). Driven by
// ../browser_test.go, which compares the numbers with the runtime's.
"use strict";
const { chromium } = require("playwright-core");

async function main() {
  const [url, shot, ...resources] = process.argv.slice(2);
  if (!url || !shot || resources.length === 0) throw new Error("usage: node check.js URL SCREENSHOT RESOURCE...");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, deviceScaleFactor: 1 });
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    await page.goto(url, { waitUntil: "load" });
    // Every named resource shows a completed second and its chart has at
    // least minPoints seconds drawn. (A fixed wait instead left the charts
    // two or three seconds long, about 9 px a second: too short, at times,
    // for the pass line to show the 30 pixels of its colour the test wants.)
    const minPoints = 8;
    await page.waitForFunction(([names, min]) => names.every((n) => {
      const row = [...document.querySelectorAll("#resources tbody tr")].find((r) => r.dataset.resource === n);
      const card = [...document.querySelectorAll("#charts .chart")].find((c) => c.dataset.resource === n);
      return row && row.dataset.second !== "0" && card && Number(card.dataset.points) >= min;
    }), [resources, minPoints], { timeout: 30000 });
    const shown = await page.evaluate((names) => {
      const rows = {};
      for (const row of document.querySelectorAll("#resources tbody tr")) {
        const f = (k) => row.querySelector(`[data-field="${k}"]`).textContent;
        rows[row.dataset.resource] = {
          second: Number(row.dataset.second), pass: Number(f("pass")), block: Number(f("block")),
          success: Number(f("success")), error: Number(f("error")), rtMs: Number(f("rt")),
          breakers: [...row.querySelectorAll(".state")].map((s) => s.textContent),
        };
      }
      const charts = {};
      for (const card of document.querySelectorAll("#charts .chart")) {
        const r = card.querySelector("canvas").getBoundingClientRect();
        charts[card.dataset.resource] = { x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height };
      }
      return {
        rows, charts, names,
        transitions: [...document.querySelectorAll("#transitions tbody tr")].map((r) => [...r.cells].map((c) => c.textContent)),
        flowRules: document.querySelectorAll("#flow-rules tbody tr").length,
        degradeRules: document.querySelectorAll("#degrade-rules tbody tr").length,
        otherRules: [...document.querySelectorAll("#other-rules tbody tr")].map((r) => [...r.cells].map((c) => c.textContent)),
        status: document.getElementById("status").textContent,
      };
    }, resources);
    await page.screenshot({ path: shot, fullPage: true });
    shown.errors = errors;
    process.stdout.write(JSON.stringify(shown) + "\n");
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + "\n");
  process.exit(1);
});
