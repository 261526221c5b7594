export declare const external: boolean
