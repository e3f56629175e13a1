export type BuildStep = {
  name: string
  output: string
  sources: string[]
  command: string[]
  buildEnv?: Record<string, string>
}

export function buildSteps(options: { production: boolean }): BuildStep[]
