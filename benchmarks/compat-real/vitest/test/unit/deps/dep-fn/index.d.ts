declare function create<T>(arg?: T): T
export default create