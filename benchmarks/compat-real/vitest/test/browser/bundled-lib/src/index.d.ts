export declare function index(): string
