// A Checkly browser check, pasted as is: it logs in and asserts the dashboard's greeting.
const { test, expect } = require("@playwright/test");

test("log in and see the dashboard", async ({ page }) => {
  await page.goto(process.env.SITE_URL);
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByLabel("Password").fill(process.env.PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByText("Welcome back, Ada")).toBeVisible();
});
