export default function (arg) {
  return arg ?? function () {}
}
