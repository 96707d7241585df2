interface RestConfig {
  prefix: string;
  defaultLimit: number;
  maxLimit: number;
  withCount: boolean;
}

const rest: RestConfig = {
  prefix: '/rest',
  defaultLimit: 5,
  maxLimit: 10,
  withCount: true,
};

export default { rest };
