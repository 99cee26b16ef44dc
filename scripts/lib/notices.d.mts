/** Types for notices.mjs (the third-party notices the build writes into each dist/<target>/). */
export interface BundledPackage {
  name: string;
  version: string;
  /** package.json's "license" (an SPDX expression). */
  license: string;
  /** The repository's address, as https. */
  source: string | undefined;
  /** The package's LICENSE file, if it has one. */
  text: string | undefined;
}
export const NOTICES_FILE: string;
export const NOT_IN_FIREFOX: string;
export function packageOf(id: string): { name: string; dir: string } | undefined;
export function readPackage(dir: string): BundledPackage;
export function bundledPackages(moduleIds: Iterable<string>, read?: (dir: string) => BundledPackage): BundledPackage[];
export function splitLicence(text: string): { copyright: string[]; body: string };
export function renderNotices(packages: readonly BundledPackage[], project: { name: string; version: string; license?: string | undefined }): string;
export function readNoticesPackages(text: string): string[];
export function checkNotices(
  text: string | undefined,
  dependencies: Record<string, string> | undefined,
  lock: { packages?: Record<string, { version?: string; dev?: boolean }> },
): string[];
