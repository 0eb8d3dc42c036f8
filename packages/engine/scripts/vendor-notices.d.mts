/** A package inside a bundle. */
export interface BundledPackage {
  name: string;
  version: string;
}
export function bundledPackages(code: string): BundledPackage[];
export function noticeProblems(notices: string, packages: BundledPackage[]): string[];
