export default 'ok' satisfies string
