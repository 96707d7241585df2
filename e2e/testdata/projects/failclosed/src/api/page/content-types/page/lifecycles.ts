export default {
  afterFindMany(event: any) {
    for (const page of event.result) {
      page.title = page.title && page.title.toUpperCase();
    }
  },
};
