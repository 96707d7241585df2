'use strict';

// The login and registration checks, as the plugin words them, with the phone number the app
// asks for at registration.
const { yup, validateYupSchema } = require('@strapi/utils');

const callbackSchema = yup.object({
  identifier: yup.string().required(),
  password: yup.string().required(),
});

const registerSchema = yup.object({
  email: yup.string().email().required(),
  username: yup.string().required(),
  password: yup.string().required(),
  phone: yup
    .string()
    .matches(/^\+?[0-9 ]{6,20}$/, 'Please provide a valid phone number')
    .nullable(),
});

module.exports = {
  validateCallbackBody: validateYupSchema(callbackSchema),
  validateRegisterBody: validateYupSchema(registerSchema),
};
