import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common'

/**
 * zxcvbn with its common passwords, words and keyboard layouts: imported on demand by the
 * password policy (passwordPolicy.ts). Static imports here, so the production bundle gives this
 * CommonJS package its named exports (a dynamic import of it would see only a default).
 */
export const passwordStrength = new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs })
