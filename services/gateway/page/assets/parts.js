// The parts of contact_info and address as the page asks for them (structured-controls.js).
// Their names and which are required unless the configuration says otherwise are the
// question-type table's (common/questions/question_type_table.cc): tests/e2e/question_types_page.js
// checks them against the served OpenAPI document, which is made from that table.
// Per type: [name, label, autocomplete token, input type, required unless configured].
export const PARTS = {
  contact_info: [
    ["first_name", "First name", "given-name", "text", false],
    ["last_name", "Last name", "family-name", "text", false],
    ["email", "Email", "email", "email", false],
    ["phone", "Phone", "tel", "tel", false],
    ["company", "Company", "organization", "text", false],
  ],
  address: [
    ["line1", "Address line 1", "address-line1", "text", true],
    ["line2", "Address line 2", "address-line2", "text", false],
    ["city", "City", "address-level2", "text", true],
    ["region", "State or region", "address-level1", "text", false],
    ["postal_code", "Postal code", "postal-code", "text", false],
    ["country", "Country code (e.g. GB)", "country", "text", true],
  ],
};
