/** Types of `api-report.mjs`, for the test that checks the reports. */
export declare const REPORT: string
export declare function reports(): { pkg: { dir: string, name: string, entries: [string, string][] }, text: string }[]
