export * from './fields';
export * from './locators';
