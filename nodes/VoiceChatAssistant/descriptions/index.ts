export * from './fields';
export * from './locators';
export * from './callStatuses';
export * from './cost';
export * from './app';
export * from './typeOptions';
export * from './toolParameters';
