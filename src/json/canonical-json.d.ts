/** JSON with object keys sorted and no spaces; throws a TypeError for values JSON cannot represent. */
export declare function canonicalJson(value: unknown): string;
