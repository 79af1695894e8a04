import { createServer, type Server } from "node:http";

/** A local site with a login form: POST /login with the right password leads to /dashboard. */
export interface LoginSite {
  url: string;
  /** The password the form accepts. */
  password: string;
  /** Requests it has answered. */
  readonly hits: number;
  close: () => Promise<void>;
}

const page = (body: string) => `<!doctype html><html><head><title>Shop</title></head><body>${body}</body></html>`;

/**
 * Starts the site on a loopback port. The dashboard logs a console error (a failing widget), so a
 * run that fails on it has one to report.
 */
export async function startLoginSite(password = "correct horse"): Promise<LoginSite> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits += 1;
    const url = new URL(req.url ?? "/", "http://x");
    res.setHeader("content-type", "text/html; charset=utf-8");
    if (url.pathname === "/login" && req.method === "POST") {
      let body = "";
      req.on("data", (d: Buffer) => void (body += d.toString()));
      req.on("end", () => {
        const ok = new URLSearchParams(body).get("password") === password;
        res.writeHead(303, { location: ok ? "/dashboard" : "/?error=1" }).end();
      });
      return;
    }
    if (url.pathname === "/dashboard") {
      res.end(
        page(
          `<h1>Dashboard</h1><p id="welcome">Welcome back, Ada</p><script>console.error("orders widget failed to load")</script>`,
        ),
      );
      return;
    }
    const error = url.searchParams.has("error") ? `<p role="alert">Wrong password</p>` : "";
    res.end(
      page(
        `${error}<form method="post" action="/login"><label>Email <input name="email"></label><label>Password <input name="password" type="password"></label><button type="submit">Sign in</button></form>`,
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    password,
    get hits() {
      return hits;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A Checkly-style browser check that logs in and asserts `text` on the dashboard. */
export function loginScript(site: LoginSite, text: string): string {
  return [
    `const { test, expect } = require("@playwright/test");`,
    ``,
    `test("log in and see the dashboard", async ({ page }) => {`,
    `  await page.goto(${JSON.stringify(site.url)});`,
    `  await page.getByLabel("Email").fill("ada@example.com");`,
    `  await page.getByLabel("Password").fill(process.env.PASSWORD);`,
    `  await page.getByRole("button", { name: "Sign in" }).click();`,
    `  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();`,
    `  await expect(page.getByText(${JSON.stringify(text)})).toBeVisible({ timeout: 2000 });`,
    `});`,
  ].join("\n");
}
