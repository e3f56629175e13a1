/**
 * The page texts the site was written with. The seed stores them, and they are the globals'
 * defaults: a global never saved reads as them, and the migration gives them to a shop upgraded
 * from before these texts were editable.
 */

export const landingHeroDefaults = {
  eyebrow: 'A framework for communities',
  title: 'Identity, the dual vote and trust you can verify',
  text: 'Self-managed identity, decisions voted twice, and trust metrics recorded on a public ledger where anyone can check them. Read the papers, try the tools, and get the book.',
  storeButtonLabel: 'Get the book',
  resourcesButtonLabel: 'Explore resources',
}

export const papersIntroductionDefaults = {
  eyebrow: 'Library',
  title: 'White Papers',
  text: 'Nine papers describe the framework, in English and Italian. Each file is certified with a timestamp on the public ledger: open its certificate to check that the text you read is the text that was published.',
}
