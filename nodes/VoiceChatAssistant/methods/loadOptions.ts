// Option loaders of the assistant fields (languages, voices by mode and language,
// models by mode, providers, assignable phone numbers, mid call tools).
export {};
