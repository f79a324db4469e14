export * from './fields';
export * from './locators';
export * from './callStatuses';
