import conditionCustom from 'test-dep-conditions-indirect/custom'
import conditionDevelopment from 'test-dep-conditions-indirect/development'
import conditionModule from 'test-dep-conditions-indirect/module'
import conditionNode from 'test-dep-conditions-indirect/node'
import conditionProduction from 'test-dep-conditions-indirect/production'

export default {
  conditionCustom,
  conditionModule,
  conditionNode,
  conditionDevelopment,
  conditionProduction,
}
