/** Types of gateway/bundle.mjs (plain JavaScript so that `npm start` can run it before anything is compiled). */
export declare const REPO_ROOT: string;
export declare const DEFAULT_BUNDLE: string;
export declare function newestMtime(path: string): number;
export declare function bundleGateway(outfile?: string, entry?: string): Promise<string>;
export declare function ensureGatewayBundle(): Promise<string>;
