import puppeteer, { type Browser } from "puppeteer-core";
import { inject } from "vitest";

/** Starts the Chromium the global set-up found (scripts/ensure-chromium.mjs), headless, for a test that opens pages. */
export async function launchChromium(): Promise<Browser> {
  return await puppeteer.launch({
    executablePath: inject("chromiumPath"),
    headless: true,
    args: ["--no-sandbox", "--disable-gpu"],
  });
}
