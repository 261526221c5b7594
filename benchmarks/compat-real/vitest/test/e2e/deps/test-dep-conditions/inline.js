export default !!import.meta.__IS_INLINE__
