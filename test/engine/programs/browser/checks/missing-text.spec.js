// The same journey, asserting a text the dashboard does not show: every run fails at line 12.
import { test, expect } from "@playwright/test";

test("log in and see the promotion", async ({ page }) => {
  await test.step("log in", async () => {
    await page.goto(process.env.SITE_URL);
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("Password").fill(process.env.PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
  });
  await test.step("see the promotion", async () => {
    await expect(page.getByText("50% off everything")).toBeVisible({ timeout: 2000 });
  });
});
