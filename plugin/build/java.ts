/**
 * The native plugin's Java SDK: the package `com.pulumi.uptime`, generated from the schema the
 * bundle serves by `uptime-sdkgen-java` (pulumi-java's own code generator, tools/pulumi-language-java),
 * built with Maven into the jar `com.pulumi:uptime:<version>`, and cached outside the clone by the
 * hashes of the schema, the generator and this recipe. Maven's local repository is the project's
 * cache (`<cache>/maven/repository`), not `~/.m2`: the SDK is installed there, and the first
 * install also resolves, online, everything a program needs to compile and run (examples/native-java),
 * so that programs then run with Maven offline (`javaProgramSettings`).
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, type PluginBuild } from "./bundle";
import { buildOnce, cacheRoot, run, withLock } from "./cache";
import { loadEnsure } from "./python";

/** The Java SDK as Maven coordinates: `com.pulumi:uptime:<version>`, the schema's name. */
export const JAVA_GROUP = "com.pulumi";
export const JAVA_ARTIFACT = "uptime";
/** The Java SDK (`com.pulumi:pulumi`) the generated SDK is built against: pulumi-java's release of the generator. */
export const PULUMI_JAVA = "1.17.0";

/** Where the Java SDK is: its sources and pom.xml in `dir`, the jar Maven built. */
export interface JavaSdkBuild {
  dir: string;
  jar: string;
  version: string;
}

/**
 * Maven plugins pinned to versions that run on Maven 3.8 and Java 17 (Maven's own defaults for
 * the compiler, 3.1, cannot compile for Java 11).
 */
const PLUGINS = [
  ["maven-resources-plugin", "3.3.1"],
  ["maven-compiler-plugin", "3.13.0"],
  ["maven-surefire-plugin", "3.5.2"],
  ["maven-jar-plugin", "3.4.2"],
];

/** The SDK's pom.xml: the generator writes sources only; these are the dependencies its code uses. */
function sdkPom(version: string): string {
  const dep = (g: string, a: string, v: string) =>
    `    <dependency><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version></dependency>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${JAVA_GROUP}</groupId>
  <artifactId>${JAVA_ARTIFACT}</artifactId>
  <version>${version}</version>
  <packaging>jar</packaging>
  <name>uptime</name>
  <description>Java SDK of the uptime Pulumi plugin: monitors, notification channels and status pages.</description>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.release>11</maven.compiler.release>
  </properties>
  <dependencies>
${dep("com.pulumi", "pulumi", PULUMI_JAVA)}
${dep("com.google.code.gson", "gson", "2.8.9")}
${dep("com.google.code.findbugs", "jsr305", "3.0.2")}
  </dependencies>
  <build>
    <plugins>
${PLUGINS.map(([a, v]) => `      <plugin><artifactId>${a}</artifactId><version>${v}</version></plugin>`).join("\n")}
    </plugins>
  </build>
</project>
`;
}

/** Maven's local repository: the project's cache, shared by the SDK's build and every Java program. */
export function mavenRepository(): string {
  return join(cacheRoot(), "maven", "repository");
}

/** `mvn` in batch mode with the project's local repository. */
function mvn(args: string[], cwd: string): Promise<string> {
  return run("mvn", ["-B", "--no-transfer-progress", `-Dmaven.repo.local=${mavenRepository()}`, ...args], { cwd });
}

/** The folder of `pulumi-language-java` and `uptime-sdkgen-java`, built first when missing. */
export async function ensureJavaToolsBin(): Promise<string> {
  return (await (await loadEnsure()).ensureJavaTools()).binDir;
}

/** Generates and builds (or finds cached) the Java SDK of this plugin build's schema: once, however many processes ask. */
export async function buildJavaSdk(plugin: PluginBuild): Promise<JavaSdkBuild> {
  const generator = join(await ensureJavaToolsBin(), "uptime-sdkgen-java");
  const pom = sdkPom(plugin.version);
  // The generator's folder is named by the hash of its recipe: a changed generator regenerates.
  const hash = createHash("sha256")
    .update(generator)
    .update(pom)
    .update(readFileSync(plugin.schemaPath))
    .digest("hex")
    .slice(0, 12);
  const dir = join(cacheRoot(), "sdks-java", `v${plugin.version}-${hash}`);
  const jar = join(dir, "target", `${JAVA_ARTIFACT}-${plugin.version}.jar`);
  await buildOnce(
    dir,
    () => existsSync(jar),
    async (staging) => {
      await run(generator, [plugin.schemaPath, staging, plugin.version]);
      writeFileSync(join(staging, "pom.xml"), pom);
      // What pulumi-java's plugin discovery (`com.pulumi.bootstrap.internal.Main packages`) reads
      // from the classpath: the engine learns from it which plugin a program needs.
      const plugins = join(staging, "src/main/resources/com/pulumi/uptime/plugin.json");
      writeFileSync(plugins, `${JSON.stringify({ resource: true, name: "uptime", version: plugin.version })}\n`);
      await mvn(["-q", "package"], staging);
    },
  );
  return { dir, jar, version: plugin.version };
}

/**
 * Installs the SDK's jar into the project's Maven repository unless it is the one installed last
 * (a rebuilt SDK keeps its version), then resolves, online, what examples/native-java needs to
 * compile and run, so that programs run offline from then on.
 */
export async function installJavaSdk(sdk: JavaSdkBuild): Promise<string> {
  const repo = mavenRepository();
  const at = join(repo, ...JAVA_GROUP.split("."), JAVA_ARTIFACT, sdk.version);
  const marker = join(at, ".uptime-sdk");
  const installed = () => existsSync(marker) && readFileSync(marker, "utf8") === sdk.dir;
  if (installed()) return repo;
  mkdirSync(at, { recursive: true });
  await withLock(at, async () => {
    if (installed()) return;
    await mvn(
      [
        "-q",
        "org.apache.maven.plugins:maven-install-plugin:3.1.2:install-file",
        `-Dfile=${sdk.jar}`,
        `-DpomFile=${join(sdk.dir, "pom.xml")}`,
      ],
      sdk.dir,
    );
    // The language host's first step: compile the program and list its plugins. It resolves the
    // program's dependencies and Maven plugins (exec-maven-plugin's too) into the repository.
    const work = mkdtempSync(join(tmpdir(), "pulumi-uptime-java-"));
    try {
      cpSync(join(ROOT, "examples", "native-java"), work, { recursive: true });
      await mvn(
        ["-q", "compile", "exec:java", "-DmainClass=com.pulumi.bootstrap.internal.Main", "-DmainArgs=packages"],
        work,
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    writeFileSync(marker, sdk.dir);
  });
  return repo;
}

/**
 * Points a Java program in `dir` at the project's Maven repository and runs Maven offline there
 * (`.mvn/maven.config`, which Maven reads from the program's folder): the language host's `mvn`
 * then finds the SDK and needs no network. Maven's JVM (which runs the program too, `exec:java`)
 * compiles with C1 alone (`.mvn/jvm.config`): each of the host's two Maven runs per command then
 * takes about 40 % less CPU, and the programs are too short-lived to gain from C2.
 */
export function javaProgramSettings(dir: string): void {
  mkdirSync(join(dir, ".mvn"), { recursive: true });
  writeFileSync(join(dir, ".mvn", "maven.config"), `--offline\n-Dmaven.repo.local=${mavenRepository()}\n`);
  writeFileSync(join(dir, ".mvn", "jvm.config"), "-XX:TieredStopAtLevel=1\n");
}
