declare class Klass {
  static clickCancel(): void
}
export default Klass
