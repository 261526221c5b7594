export const thing = 'jsr';
