'use strict';

// The profile a visitor may save, checked with yup as the app's other forms are. The schemas
// are built once, when the module loads.
const yup = require('yup');
const { yup: strapiYup, validateYupSchema, validateYupSchemaSync } = require('@strapi/utils');

const profileSchema = yup
  .object()
  .shape({
    name: yup.string().trim().min(2).max(40).required(),
    email: strapiYup.string().email().required(),
    phone: yup.string().matches(/^\+?[0-9 ]{6,20}$/, 'phone must be a phone number'),
    age: yup.number().integer().positive().lessThan(150),
    newsletter: yup.boolean().default(false),
    tags: yup.array().of(yup.string().lowercase()).max(3),
    address: yup
      .object({
        city: yup.string().required(),
        zip: yup.string().length(5),
      })
      .default(undefined),
  })
  .noUnknown();

const idsSchema = strapiYup.object({
  ids: strapiYup.array().of(strapiYup.strapiID()).min(1).required(),
});

module.exports = {
  validateProfile: validateYupSchema(profileSchema),
  // Forms post strings: cast them (and drop what the profile does not have) before saving.
  castProfile: validateYupSchema(profileSchema, { strict: false, stripUnknown: true }),
  validateIds: validateYupSchemaSync(idsSchema),
};
