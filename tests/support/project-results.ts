/** One test of a child run's JSON report, with the project it ran in. */
export interface ReportedTest {
  /** Its title, without the describes around it. */
  title: string;
  projectName: string;
  /** Playwright's outcome: `expected`, `unexpected`, `flaky` or `skipped`. */
  status: string;
  annotations: Array<{ type: string; description?: string }>;
}

interface ReportSuite {
  specs: Array<{ title: string; tests: Array<{ projectName: string; status: string; annotations: Array<{ type: string; description?: string }> }> }>;
  suites?: ReportSuite[];
}

/**
 * The tests of a Playwright JSON report (`InlineResult.report`), grouped by project: a child run
 * with several projects side by side (one per scenario, each against its own server) is read as
 * the separate runs it replaces.
 *
 * @example
 * const byProject = testsByProject(result.report);
 * expect(byProject.validated?.every((t) => t.status === 'expected')).toBe(true);
 */
export function testsByProject(report: { suites: unknown[] }): Record<string, ReportedTest[]> {
  const found: Record<string, ReportedTest[]> = Object.create(null);
  const visit = (suite: ReportSuite): void => {
    for (const spec of suite.specs) {
      for (const t of spec.tests) (found[t.projectName] ??= []).push({ title: spec.title, projectName: t.projectName, status: t.status, annotations: t.annotations });
    }
    suite.suites?.forEach(visit);
  };
  (report.suites as ReportSuite[]).forEach(visit);
  return found;
}
